/**
 * When bytes handled now may have arrived. A process starved of CPU (a busy CI machine) or busy
 * in a long synchronous task handles what arrived meanwhile only once it runs again, and
 * `Date.now()` then dates it late by as much. The response guard dates a kept-alive connection's
 * idle time from its last answer (resend.ts); dated late, an idle close the target already sent
 * crosses a create the guard thinks safe to send. A beat every `beatMs` says when the event loop
 * last ran on time: bytes handled now arrived no earlier than that.
 */
const beatMs = 20;
/** A beat this much later than asked: the loop was held up between the two beats. */
const lateMs = 2 * beatMs;

let lastBeat = Date.now();
/** The loop ran on time then, or later. */
let onTimeAt = lastBeat;
let beating = false;

function beat(): void {
  const now = Date.now();
  // Late: what was handled since (this turn, before this beat) may have arrived at the last beat.
  onTimeAt = now - lastBeat > beatMs + lateMs ? lastBeat : now;
  lastBeat = now;
}

/** Starts the beat (once a process): before the first bytes it is to date. */
export function startLoopClock(): void {
  if (beating) return;
  beating = true;
  lastBeat = onTimeAt = Date.now();
  // Unreferenced: it never keeps a process alive.
  setInterval(beat, beatMs).unref();
}

/** The earliest time bytes handled now can have arrived at this process. */
export function earliestArrival(): number {
  if (!beating) return Date.now();
  // Never after the last beat: held up now, before the next beat could tell, that is the bound.
  return onTimeAt;
}
