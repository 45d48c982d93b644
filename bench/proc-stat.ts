import { readFileSync } from 'node:fs'

/** USER_HZ: 100 on every Linux this runs on. */
const CLOCK_TICKS = 100

/**
 * A process's (or thread's) process group and CPU time so far (user + system, in ms) from its
 * /proc stat file; undefined when it cannot be read (gone, or not Linux).
 */
export function procStat(file: string): { pgid: number; cpuMs: number } | undefined {
  try {
    // Fields after the command name (which may hold spaces): pgrp is the 3rd, utime and stime the 12th and 13th.
    const stat = readFileSync(file, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return { pgid: Number(fields[2]), cpuMs: ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS }
  } catch {
    return undefined
  }
}

/** CPU time of this process's main thread (the event loop) so far, in ms. */
export const mainThreadCpuMs = () => procStat(`/proc/self/task/${process.pid}/stat`)?.cpuMs
