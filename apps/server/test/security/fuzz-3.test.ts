import { fuzzSuite } from './fuzz-suite.ts';

// Part 3 of the route fuzzer (fuzz-suite.ts); the parts together cover every route.
fuzzSuite(3, 3);
