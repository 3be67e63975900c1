/**
 * `vscode.lm` for unit tests: import after ./fakeVscode and before the module under test (which
 * copies the `vscode` API when it loads). `registeredTools` holds what `lm.registerTool` was given.
 */
import { fakeVscode } from "./fakeVscode";

/** A registered language-model tool, as the tests call it. */
export interface FakeTool {
  invoke(options: { input: unknown }): Promise<{ content: { value: string }[] }>;
}

/** The tools registered so far, by name. */
export const registeredTools = new Map<string, FakeTool>();

Object.assign(fakeVscode, {
  lm: {
    registerTool: (name: string, tool: FakeTool) => {
      registeredTools.set(name, tool);
      return { dispose: () => registeredTools.delete(name) };
    },
  },
  LanguageModelTextPart: class {
    constructor(readonly value: string) {}
  },
  LanguageModelToolResult: class {
    constructor(readonly content: { value: string }[]) {}
  },
});
