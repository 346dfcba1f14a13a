import { Presets, SingleBar } from 'cli-progress';

/** The progress bar of the commands (on a terminal only): label, bar, percentage, count and detail. */
export const bar = (label: string) =>
  new SingleBar(
    {
      format: `${label.padEnd(12)} {bar} {percentage}% | {value}/{total} | {detail}`,
      hideCursor: true,
      clearOnComplete: false,
      noTTYOutput: false,
      etaBuffer: 50,
    },
    Presets.shades_classic,
  );
