import { fuzzSuite } from './fuzz-suite.ts';

// Part 1 of the route fuzzer (fuzz-suite.ts); the parts together cover every route.
fuzzSuite(1, 3);
