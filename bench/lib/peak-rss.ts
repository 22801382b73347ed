import fs from 'node:fs';

/**
 * This process's peak resident memory, in MB. On Linux it is VmHWM (/proc/self/status), the high-water
 * mark of this program alone: getrusage's maxRSS of a process that Node spawned starts at its parent's
 * resident size (libuv forks, and the copy's high-water mark survives the exec), so an import run by the
 * benchmark, whose own process then held several hundred MB, reported that much more than it used.
 * Elsewhere, maxRSS.
 */
export function peakRssMb(): number {
  try {
    const hwm = /^VmHWM:\s+(\d+) kB$/m.exec(fs.readFileSync('/proc/self/status', 'utf8'));
    if (hwm) return Math.round(Number(hwm[1]) / 102.4) / 10;
  } catch {
    // Not Linux: fall through.
  }
  return Math.round(process.resourceUsage().maxRSS / 102.4) / 10;
}
