/**
 * Runs the `main(argv)` of the CLI of the package whose `bin/` holds `binUrl`: its built
 * `dist/cli.js` when installed, its `src/cli.ts` under tsx in a checkout. `registerTsx` imports
 * `tsx/esm/api` from the calling package.
 */
export declare function launchCli(
  binUrl: string,
  registerTsx: () => Promise<{ register(): unknown }>,
): Promise<void>;
