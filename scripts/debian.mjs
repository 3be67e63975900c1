// Debian packages the scripts need on a fresh machine of this kind (Chromium; libkrb5-dev, a C/C++
// toolchain and python3 for code-server's native modules). Installed with apt-get when running as
// root (as .ci/run does); otherwise a clear error naming the command to run.
import { spawn } from "node:child_process";
import { accessSync, constants, existsSync } from "node:fs";
import { delimiter, join } from "node:path";

const log = (msg) => console.log(`[debian] ${msg}`);

/** True when `name` is an executable on PATH (or an absolute path that exists). */
export function onPath(name) {
  if (name.startsWith("/")) return existsSync(name);
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    try {
      accessSync(join(dir, name), constants.X_OK);
      return true;
    } catch {
      /* not in this directory */
    }
  }
  return false;
}

/** Runs apt-get quietly; rejects with its output's tail on failure. */
function aptGet(args) {
  return new Promise((resolveRun, reject) => {
    const child = spawn("apt-get", args, {
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    const keep = (chunk) => (output = (output + chunk).slice(-4_000));
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    child.on("error", (err) => reject(new Error(`apt-get failed to start: ${err.message}`)));
    child.on("exit", (code) =>
      code === 0 ? resolveRun() : reject(new Error(`apt-get ${args.join(" ")} failed:\n${output}`)),
    );
  });
}

/**
 * Makes sure each requirement is met. `needs` maps a Debian package to a check (true = present).
 * Missing packages are installed in one apt-get run as root; otherwise throws naming `why` and the
 * `sudo apt-get install` line that fixes it.
 */
export async function ensureDebianPackages(needs, why) {
  const missing = Object.entries(needs)
    .filter(([, present]) => !present())
    .map(([pkg]) => pkg);
  if (missing.length === 0) return;
  if (process.getuid?.() !== 0 || !onPath("apt-get")) {
    throw new Error(`${why} needs ${missing.join(", ")}: run \`sudo apt-get install -y ${missing.join(" ")}\``);
  }
  log(`installing ${missing.join(" ")} (${why})`);
  await aptGet(["update", "-qq"]);
  await aptGet(["install", "-y", "-qq", ...missing]);
}
