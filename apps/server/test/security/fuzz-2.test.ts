import { fuzzSuite } from './fuzz-suite.ts';

// Part 2 of the route fuzzer (fuzz-suite.ts); the parts together cover every route.
fuzzSuite(2, 3);
