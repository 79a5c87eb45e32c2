// Turns of the event loop, handed out one at a time. serve runs every request on one event
// loop, and Node (libuv ≥ 1.45) accepts one new connection per loop iteration: when 32
// requests of 8 rollouts arrive at once and each rollout's synchronous work (extracting,
// sanitising, checks, assembling its record) runs back to back in one iteration, the 32nd
// connection is accepted only after all the earlier requests' work, and a deadline timer that
// is due fires only after the iteration ends (issue 38's bench: answers up to 9 s past their
// deadline at load ≈ 14, 1.1 s when the machine was quiet). A rollout therefore waits for
// its turn (`await loopTurn()`) before each long synchronous stretch: waiters are let go for
// at most a few ms per iteration, so between those slices the loop polls its sockets (a
// connection is accepted, a body read, a judge answer taken in) and runs its due timers. A
// turn costs at most one loop iteration (microseconds when nothing else is pending), which
// the rollouts pay only when many are ready at once.

const waiting: Array<() => void> = [];
let pumping = false;

/** Resolves on a later turn of the event loop (a few ms of waiters per iteration), in order. */
export function loopTurn(): Promise<void> {
  return new Promise<void>((resolve) => {
    waiting.push(resolve);
    if (!pumping) {
      pumping = true;
      setImmediate(pump);
    }
  });
}

/** Waiters not let go yet (for tests and metrics). */
export function loopTurnsWaiting(): number {
  return waiting.length;
}

/**
 * Lets waiters go for up to this many ms of one iteration: short stretches (most of them
 * take well under a millisecond on an idle machine) share an iteration instead of paying one
 * each, and a long one ends the iteration's share.
 */
const SLICE_MS = 4;

function pump(): void {
  const start = performance.now();
  const step = (): void => {
    const next = waiting.shift();
    if (next === undefined) {
      pumping = false;
      return;
    }
    // The waiter's continuation is queued as a microtask before this step's next call, so
    // the time measured below includes its synchronous stretch.
    next();
    if (performance.now() - start < SLICE_MS) queueMicrotask(step);
    // An immediate set from inside an immediate callback runs on the next iteration, after
    // the poll phase (sockets: connections, bodies, judge answers) and the due timers.
    else setImmediate(pump);
  };
  step();
}
