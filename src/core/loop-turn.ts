// Turns of the event loop, handed out one at a time. serve runs every request on one event
// loop, and Node (libuv ≥ 1.45) accepts one new connection per loop iteration: when 32
// requests of 8 rollouts arrive at once and each rollout's synchronous work (extracting,
// sanitising, checks, assembling its record) runs back to back in one iteration, the 32nd
// connection is accepted only after all the earlier requests' work, and a deadline timer that
// is due fires only after the iteration ends (issue 38's bench: answers up to 9 s past their
// deadline at load ≈ 14, 1.1 s when the machine was quiet). A rollout therefore waits for
// its turn (`await loopTurn()`) before each long synchronous stretch: exactly one waiter is
// let go per iteration, so between two stretches the loop polls its sockets (a connection is
// accepted, a body read, a judge answer taken in) and runs its due timers. A turn costs one
// loop iteration (microseconds when nothing else is pending), which the rollouts pay only
// when many are ready at once.

const waiting: Array<() => void> = [];
let pumping = false;

/** Resolves on a later iteration of the event loop, one waiter per iteration, in order. */
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

function pump(): void {
  // The waiter's continuation runs as a microtask right after this callback; an immediate
  // set from inside an immediate callback runs on the next iteration, after the poll phase
  // and the timers.
  waiting.shift()?.();
  if (waiting.length > 0) setImmediate(pump);
  else pumping = false;
}
