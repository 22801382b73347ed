import { configure } from '@testing-library/react';

// CI runs these files beside the server's test files on two cores, where jsdom can take seconds to render
// a screen that takes milliseconds on an idle machine: testing-library's default wait of 1 s failed tests
// whose screens were right, only late. A query still fails when its element never comes, 5 s later.
configure({ asyncUtilTimeout: 5_000 });
