/**
 * Base class for objects that own VS Code resources: register them with
 * {@link Disposable.register} and they are disposed together.
 */
import * as vscode from "vscode";

/** Owns a list of disposables and disposes them in reverse order. */
export class Disposable implements vscode.Disposable {
  private readonly owned: vscode.Disposable[] = [];
  private disposed = false;

  /** Takes ownership of `items`; returns the first for convenience. */
  protected register<T extends vscode.Disposable>(first: T, ...rest: vscode.Disposable[]): T {
    if (this.disposed) {
      first.dispose();
      rest.forEach((d) => d.dispose());
    } else this.owned.push(first, ...rest);
    return first;
  }

  /** True once disposed. */
  protected get isDisposed(): boolean {
    return this.disposed;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const d of this.owned.splice(0).reverse()) {
      try {
        d.dispose();
      } catch {
        // keep disposing the rest
      }
    }
  }
}
