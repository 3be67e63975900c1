/**
 * The CLI's argument parser (node:util's parseArgs, strict): what it accepts, and that every
 * argument it refuses gets a message that quotes the argument, says what was expected and what
 * to write instead (the CLI prints it after "autodev-state COMMAND:", then where its help is).
 */
import { strict as assert } from "node:assert";
import { UsageError, parseArgs, takeOption } from "../../../src/cli/cliArgs";

const VALUED = ["at", "lock-timeout"];
const SWITCHES = ["json"];

function parse(...argv: string[]) {
  const r = parseArgs(argv, VALUED, SWITCHES);
  return { positionals: r.positionals, options: Object.fromEntries(r.options), switches: [...r.switches] };
}

/** The message of the UsageError parsing `argv` throws. */
function mistake(...argv: string[]): string {
  try {
    parseArgs(argv, VALUED, SWITCHES);
  } catch (e) {
    assert.ok(e instanceof UsageError, `a UsageError, not ${String(e)}`);
    return e.message;
  }
  assert.fail(`${JSON.stringify(argv)} was accepted`);
}

describe("cli arguments", () => {
  it("takes positionals, --name value, --name=value, switches and positionals after --", () => {
    assert.deepEqual(parse("dir", "--at", "3", "--json"), {
      positionals: ["dir"],
      options: { at: "3" },
      switches: ["json"],
    });
    assert.deepEqual(parse("--at=", "--lock-timeout=5", "-", "--", "--json", "-x"), {
      positionals: ["-", "--json", "-x"],
      options: { at: "", "lock-timeout": "5" },
      switches: [],
    });
    assert.deepEqual(parse("--at", "1", "--at", "2").options, { at: "2" }, "the last one given counts");
    assert.deepEqual(parse("--at=-1").options, { at: "-1" }, "a value that starts with a dash, inline");
  });

  it("an unknown option: quoted, the near name, the options the command takes", () => {
    assert.equal(
      mistake("dir", "--jsn"),
      'unknown option "--jsn": did you mean --json? its options are --at VALUE, --lock-timeout VALUE, --json',
    );
    assert.equal(
      mistake("--frobnicate=1"),
      'unknown option "--frobnicate=1": its options are --at VALUE, --lock-timeout VALUE, --json',
    );
    assert.throws(() => parseArgs(["--x"], [], []), { message: 'unknown option "--x": it takes no options' });
  });

  it("a short option or a dash-led positional: what it is and how to pass it as an argument", () => {
    assert.equal(
      mistake("dir", "-1"),
      'unknown option "-1": its options are --at VALUE, --lock-timeout VALUE, --json; ' +
        'an argument that starts with "-" but is not an option goes after "--" (-- -1)',
    );
  });

  it("a value missing at the end, or an option where its value should be", () => {
    assert.equal(
      mistake("dir", "--at"),
      '"--at" needs a value and the command line ends there; write --at VALUE (or --at=VALUE)',
    );
    assert.equal(
      mistake("--lock-timeout", "-1"),
      '"--lock-timeout" needs a value, but the next argument is "-1", which reads as an option; ' +
        "write --lock-timeout=-1 if that is the value, or give --lock-timeout its value first",
    );
    assert.match(mistake("--at", "--json"), /^"--at" needs a value, but the next argument is "--json"/);
  });

  it("a switch given a value", () => {
    assert.equal(mistake("--json=yes"), '"--json=yes": --json is a switch and takes no value; write --json alone');
  });
});

describe("takeOption (a global option such as --max-line-mb)", () => {
  it("takes it before or after the command, as --name VALUE or --name=VALUE, and leaves the rest in order", () => {
    assert.deepEqual(takeOption(["--max-line-mb", "4", "verify", "--max-line-mb=2", "DIR", "--json"], "max-line-mb"), {
      values: ["4", "2"],
      rest: ["verify", "DIR", "--json"],
    });
  });

  it("leaves what follows -- alone, and says a value is missing at the end of the line", () => {
    assert.deepEqual(takeOption(["verify", "--", "--max-line-mb", "1"], "max-line-mb"), {
      values: [],
      rest: ["verify", "--", "--max-line-mb", "1"],
    });
    assert.deepEqual(takeOption(["verify", "--max-line-mb"], "max-line-mb"), { values: [undefined], rest: ["verify"] });
  });
});
