// What the transport takes from ky, in the chunk that transport.ts loads at the first request.
export { default as ky, TimeoutError } from 'ky';
