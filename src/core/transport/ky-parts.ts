// What the transport takes from ky, in the chunk that ky.ts loads at the first request.
export { default as ky, HTTPError, TimeoutError } from 'ky';
