import path from 'node:path';

/**
 * The server package's folder (apps/server). This file sits directly in src/, as the built scripts sit
 * directly in dist/ (decision 0015), so a path from here holds for both; a file deeper in src/ cannot
 * find files by its own location once built.
 */
export const SERVER_ROOT = path.resolve(import.meta.dirname, '..');
