/**
 * The schemas of the `autodev.*` settings the extension reads itself, in zod's small build
 * (`zod/mini`). settings.ts loads this module on first use: the first value a person set (a
 * default, package.json's own, needs no check), so zod is not loaded while the host starts.
 */
import * as z from "zod/mini";

/** One schema per setting; the maxima are package.json's (a larger hand-edited value falls back to the default). */
export const SETTING_SCHEMAS = {
  verifyOnChange: z.boolean(),
  lockTimeoutSeconds: z.number().check(z.minimum(0), z.maximum(3600)),
  confirmVerifyAboveMB: z.number().check(z.minimum(0), z.maximum(1_048_576)),
  maxLineMB: z.number().check(z.minimum(1), z.maximum(500)),
  debounceMs: z.number().check(z.minimum(0), z.maximum(2000)),
  historyWarnings: z.boolean(),
  "statusBar.compact": z.boolean(),
  notifyWhenWaiting: z.enum(["off", "windowNotFocused", "always"]),
  autodevCommand: z.string().check(z.trim(), z.minLength(1)),
} as const;
