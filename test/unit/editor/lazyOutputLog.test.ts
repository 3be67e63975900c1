/**
 * The output channel is made on first need, not at activation: lines said before are kept with
 * their time and written first, in order, once it is made (after a short wait, at once on a
 * warning, an error or `show`); nothing is made for a log that never says anything.
 */
import { fakeVscode } from "../helpers/fakeVscode";
import { strict as assert } from "node:assert";
import { OutputLog } from "../../../src/extension/outputLog";

describe("OutputLog: the channel made on first need", () => {
  const window = fakeVscode.window as unknown as { createOutputChannel: (...a: unknown[]) => unknown };
  const original = window.createOutputChannel;
  let made = 0;
  let lines: string[] = [];

  beforeEach(() => {
    made = 0;
    lines = [];
    window.createOutputChannel = () => {
      made++;
      const at = (level: string) => (text: string) => void lines.push(`${level} ${text}`);
      return {
        info: at("info"),
        warn: at("warn"),
        error: at("error"),
        show: () => undefined,
        dispose: () => undefined,
      };
    };
  });

  afterEach(() => {
    window.createOutputChannel = original;
  });

  it("makes no channel for info lines until it must, then writes them first, with their time", () => {
    const log = new OutputLog();
    log.info("watching a");
    log.info("watching b");
    assert.equal(made, 0, "info lines are kept, no channel yet");
    log.warn("something odd");
    assert.equal(made, 1, "a warning makes the channel at once");
    assert.deepEqual(
      lines.map((l) => l.replace(/ \(at \d\d:\d\d:\d\d\.\d{3}\)$/, " (at T)")),
      ["info watching a (at T)", "info watching b (at T)", "warn something odd"],
    );
    log.info("later");
    assert.equal(lines.at(-1), "info later", "once made, lines go straight to it");
    assert.equal(made, 1);
    log.dispose();
  });

  it("writes kept lines once the wait passed, and on show @slow", async () => {
    const log = new OutputLog();
    log.info("first");
    log.show();
    assert.equal(made, 1);
    assert.equal(lines.length, 1);
    log.dispose();
    const quiet = new OutputLog();
    quiet.dispose();
    assert.equal(made, 1, "a log that said nothing made no channel");
    const waiting = new OutputLog();
    waiting.info("kept");
    await new Promise((r) => setTimeout(r, 1700));
    assert.equal(made, 2, "the kept lines are written after the wait");
    waiting.dispose();
  });
});
