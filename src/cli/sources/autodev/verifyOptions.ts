/**
 * The options `verify` takes, in a module of their own: the whole CLI's command table
 * (autodevCli.ts) and the verify-only bundle (verifyMain.ts) parse a command line the same
 * way without either loading the other's code.
 */

/** `verify`'s options: `--expect-head SEQ:HASH` takes a value, `--json` none. */
export const VERIFY_OPTIONS = { valued: ["expect-head"], switches: ["json"] } as const satisfies {
  readonly valued: readonly string[];
  readonly switches: readonly string[];
};
