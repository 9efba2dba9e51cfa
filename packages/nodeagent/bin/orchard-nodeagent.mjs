#!/usr/bin/env node
// The `orchard-nodeagent` command: its built CLI when installed, its TypeScript source in a checkout
// (@orchard/meta/launch-cli says how).
import { launchCli } from '@orchard/meta/launch-cli';

await launchCli(import.meta.url, () => import('tsx/esm/api'));
