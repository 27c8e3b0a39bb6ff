import { describeMockContract } from './mock-contract.js';

describeMockContract('http');
