// Entry point of the integration suite's second window (`extensionTestsPath` of the launcher's
// reload phase): the workbench is opened again on the same workspace and the same user data, so
// the extension activates afresh from the workspace state the first window persisted; runs the
// `*.reload.test.js` files (what must survive: reviewed marks).
import { runFiles, testFiles } from "./index";

export function run(): Promise<void> {
  return runFiles(testFiles(__dirname, true));
}
