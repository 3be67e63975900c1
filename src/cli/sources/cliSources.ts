/**
 * The registration of sources on the CLI side: a source with commands of its own adds one line
 * here (its commands live in src/cli/sources/<kind>/). `check` and `sources` serve every source
 * of src/core/sources/sourceRegistry.ts without one.
 */
import type { SourceCli } from "../cliCommand";
import { AUTODEV_CLI } from "./autodev/autodevCli";

/** Every source's part of the CLI, in the order the usage text lists them. */
export const CLI_SOURCES: readonly SourceCli[] = [AUTODEV_CLI];
