/** How far a pass over the whole log has got. */
export interface LogProgress {
  /** Events read so far. */
  events: number;
}

export interface ProgressOptions {
  /** What is being done, at the start of each line: "verify", "anchor". */
  label: string;
  /** Whether the lines go to a terminal: then one line is rewritten every `intervalMs`. */
  tty: boolean;
  write: (text: string) => void;
  now?: () => number;
  /** On a terminal, how often the line is rewritten. */
  intervalMs?: number;
  /** Elsewhere (a log file, CI), a line every this many pages of the log. */
  everyPages?: number;
}

export interface ProgressPrinter {
  /** A page of the log was read: `progress` counts everything read so far. */
  page(progress: LogProgress): void;
  /** The pass is over: one last line, with the whole pass's rate. */
  done(progress: LogProgress): void;
}

/**
 * Progress of a pass over the whole log, for an operator waiting on `npm run audit -- verify` or
 * `anchor`: events read and the rate, on a terminal every few seconds (one line, rewritten),
 * elsewhere one line every few pages, so a log file is not flooded. Meant for stderr: stdout
 * keeps the report alone.
 */
export function progressPrinter(options: ProgressOptions): ProgressPrinter {
  const { label, tty, write, now = Date.now, intervalMs = 2_000, everyPages = 10 } = options;
  const started = now();
  let pages = 0;
  let lastShown = started;
  let pending = false;
  const line = ({ events }: LogProgress, at: number) => {
    const seconds = Math.max((at - started) / 1000, 0.001);
    const rate = Math.round(events / seconds);
    return `${label}: ${events.toLocaleString('en-US')} events checked in ${seconds.toFixed(1)} s (${rate.toLocaleString('en-US')} events/s)`;
  };
  return {
    page(progress) {
      pages++;
      const at = now();
      if (tty ? at - lastShown >= intervalMs : pages % everyPages === 0) {
        write(tty ? `\r${line(progress, at)}\u001b[K` : `${line(progress, at)}\n`);
        lastShown = at;
        pending = tty;
      }
    },
    done(progress) {
      const last = line(progress, now());
      write(tty && pending ? `\r${last}\u001b[K\n` : `${last}\n`);
    },
  };
}
