#!/usr/bin/env node
// The `portal` command: runs the TypeScript entry point through tsx (see docs/decisions/0003-run-server-with-tsx.md).
import { runPortal } from './run-portal.mjs';

runPortal(process.argv.slice(2));
