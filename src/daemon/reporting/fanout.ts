/**
 * Delivers events to observers. Observers observe: one that throws is skipped, and neither the
 * other observers nor the emitter ever see its error.
 */
export class Fanout<E> {
  private readonly listeners = new Set<(event: E) => void>();

  /** Registers an observer; returns its unsubscribe. */
  subscribe(listener: (event: E) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Delivers `event` to every observer registered now. */
  emit(event: E): void {
    for (const l of [...this.listeners]) {
      try {
        l(event);
      } catch {
        // A broken observer never breaks the daemon.
      }
    }
  }
}
