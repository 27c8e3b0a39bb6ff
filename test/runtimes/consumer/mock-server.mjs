// The mock over HTTP, loaded from the installed package by the Node process that runs the matrix.
export { startMockHttpServer } from 'bizmsg/mock';
