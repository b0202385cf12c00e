//! Work made on two threads and handed on in order: the calling thread
//! and a helper each take the next piece not yet taken, and the calling
//! thread hands finished pieces on, in order, as they are ready.
//!
//! Taking pieces as they come keeps both threads busy when one is slowed
//! (the export's writing thread shares the two cores with them): taking
//! turns, every other piece each, runs at twice the slower thread's
//! pace, and the faster one waits at every piece. At most [`WINDOW`]
//! pieces are made ahead of the one to hand on next, so memory stays
//! bounded whatever the count.

use std::collections::VecDeque;
use std::io;
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};

/// Pieces made ahead of the next one to hand on, at most.
const WINDOW: usize = 4;

/// Makes `0..count` with `make`, on this thread and a helper, and calls
/// `hand_on` with each result in order. Stops at `hand_on`'s first error
/// (the helper finishes the piece it is making, and is then told to
/// stop); a piece the helper could not make (it panicked) is an error
/// here, and the panic is then raised when the helper is joined.
pub(super) fn make_in_order<T: Send>(
    count: usize,
    make: impl Fn(usize) -> T + Sync,
    mut hand_on: impl FnMut(T) -> io::Result<()>,
) -> io::Result<()> {
    let order = Order {
        state: Mutex::new(State {
            next: 0,
            expected: 0,
            made: VecDeque::new(),
            stopped: false,
        }),
        changed: Condvar::new(),
        count,
    };
    std::thread::scope(|scope| {
        let helper = std::thread::Builder::new().spawn_scoped(scope, || {
            // Told the others if this thread stops for any reason.
            let _stops = Stops(&order);
            while let Some(k) = order.take(false) {
                let piece = make(k);
                order.made(k, piece);
            }
        });
        if helper.is_err() {
            // No thread to be had: every piece made here, in order.
            order.lock().stopped = true;
        }
        let result = (|| loop {
            match order.step()? {
                Step::HandOn(piece) => hand_on(piece)?,
                Step::Make(k) => {
                    let piece = make(k);
                    order.made(k, piece);
                }
                Step::Done => return Ok(()),
            }
        })();
        order.lock().stopped = true;
        order.changed.notify_all();
        result
    })
}

/// What the pieces' threads share.
struct Order<T> {
    state: Mutex<State<T>>,
    /// Signalled when a piece is made or taken, the window moves, or a
    /// thread stops.
    changed: Condvar,
    count: usize,
}

struct State<T> {
    /// The first piece nobody has taken.
    next: usize,
    /// The next piece to hand on.
    expected: usize,
    /// Pieces `expected..`, those made so far.
    made: VecDeque<Option<T>>,
    /// A thread has stopped: the helper takes nothing more, and pieces it
    /// took and did not make will not come.
    stopped: bool,
}

/// What the calling thread does next.
enum Step<T> {
    HandOn(T),
    Make(usize),
    Done,
}

impl<T> Order<T> {
    fn lock(&self) -> MutexGuard<'_, State<T>> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Takes the next piece, waiting while it is a window ahead (`None`:
    /// every piece is taken, or the work stopped). `calling`: for the
    /// calling thread, which never waits here.
    fn take(&self, calling: bool) -> Option<usize> {
        let mut state = self.lock();
        loop {
            if state.next >= self.count || (state.stopped && !calling) {
                return None;
            }
            if state.next < state.expected + WINDOW {
                state.next += 1;
                return Some(state.next - 1);
            }
            if calling {
                return None;
            }
            state = self
                .changed
                .wait(state)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }

    /// Piece `k` is made.
    fn made(&self, k: usize, piece: T) {
        let mut state = self.lock();
        let at = k - state.expected;
        if state.made.len() <= at {
            state.made.resize_with(at + 1, || None);
        }
        state.made[at] = Some(piece);
        drop(state);
        self.changed.notify_all();
    }

    /// The calling thread's next step: hand on the next piece if it is
    /// made, else make one if any is free, else wait for the helper.
    fn step(&self) -> io::Result<Step<T>> {
        loop {
            let mut state = self.lock();
            if state.expected == self.count {
                return Ok(Step::Done);
            }
            if let Some(piece) = state.made.front_mut().and_then(Option::take) {
                state.made.pop_front();
                state.expected += 1;
                drop(state);
                self.changed.notify_all();
                return Ok(Step::HandOn(piece));
            }
            drop(state);
            if let Some(k) = self.take(true) {
                return Ok(Step::Make(k));
            }
            let mut state = self.lock();
            while !matches!(state.made.front(), Some(Some(_))) {
                // The next piece is the helper's: it has taken it.
                if state.stopped {
                    return Err(io::Error::other("a block of the export was not made"));
                }
                state = self
                    .changed
                    .wait(state)
                    .unwrap_or_else(PoisonError::into_inner);
            }
        }
    }
}

/// Marks the work stopped when dropped (the helper's end, however it
/// ends).
struct Stops<'a, T>(&'a Order<T>);

impl<T> Drop for Stops<'_, T> {
    fn drop(&mut self) {
        self.0.lock().stopped = true;
        self.0.changed.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs `body` on a thread of its own and fails if it has not ended
    /// within a minute: a hang is what these tests guard against, and a
    /// hung test would only stop the suite.
    fn ends<R: Send + 'static>(body: impl FnOnce() -> R + Send + 'static) -> R {
        let (done, ended) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = done.send(std::panic::catch_unwind(std::panic::AssertUnwindSafe(body)));
        });
        match ended.recv_timeout(std::time::Duration::from_secs(60)) {
            Ok(Ok(r)) => r,
            Ok(Err(panic)) => std::panic::resume_unwind(panic),
            Err(_) => panic!("still running after a minute: a hang"),
        }
    }

    #[test]
    fn pieces_are_handed_on_in_order_whoever_makes_them() {
        let caller = std::thread::current().id();
        for count in [0, 1, 2, 3, WINDOW, WINDOW + 1, 50, 1000] {
            let mut got = Vec::new();
            make_in_order(
                count,
                |k| {
                    // Uneven pieces, so the threads overtake each other;
                    // and this thread slow enough that the helper starts.
                    let here = std::thread::current().id() == caller;
                    if k % 7 == 3 || (here && count == 1000) {
                        std::thread::sleep(std::time::Duration::from_micros(100));
                    }
                    (k, here)
                },
                |piece| {
                    got.push(piece);
                    Ok(())
                },
            )
            .unwrap();
            let order: Vec<usize> = got.iter().map(|(k, _)| *k).collect();
            assert_eq!(order, (0..count).collect::<Vec<_>>());
            if count == 1000 {
                // Both threads made some.
                assert!(got.iter().any(|(_, here)| *here));
                assert!(got.iter().any(|(_, here)| !here));
            }
        }
    }

    #[test]
    fn no_more_than_a_window_is_made_ahead() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let handed = AtomicUsize::new(0);
        let most_ahead = AtomicUsize::new(0);
        make_in_order(
            200,
            |k| {
                let ahead = k - handed.load(Ordering::SeqCst);
                most_ahead.fetch_max(ahead, Ordering::SeqCst);
                k
            },
            |_| {
                std::thread::sleep(std::time::Duration::from_micros(50));
                handed.fetch_add(1, Ordering::SeqCst);
                Ok(())
            },
        )
        .unwrap();
        // Taken while fewer than a window were ahead of the next to hand
        // on, which may be in `hand_on` still (not yet counted).
        assert!(most_ahead.load(Ordering::SeqCst) <= WINDOW);
    }

    #[test]
    fn an_error_handing_on_stops_the_work() {
        let (made, handed, result) = ends(|| {
            let made = std::sync::atomic::AtomicUsize::new(0);
            let mut handed = 0;
            let result = make_in_order(
                10_000,
                |k| {
                    made.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                    k
                },
                |k| {
                    handed += 1;
                    if k == 10 {
                        return Err(io::Error::other("disk full"));
                    }
                    Ok(())
                },
            );
            (made.into_inner(), handed, result)
        });
        assert_eq!(result.unwrap_err().to_string(), "disk full");
        assert_eq!(handed, 11);
        // Stopped within a window of the failure, not after every piece.
        assert!(made <= 11 + WINDOW + 1);
    }

    #[test]
    fn a_piece_the_helper_cannot_make_is_its_panic_not_a_hang() {
        let outcome = ends(|| {
            let caller = std::thread::current().id();
            std::panic::catch_unwind(move || {
                make_in_order(
                    100,
                    |k| {
                        if std::thread::current().id() != caller {
                            panic!("the helper fails");
                        }
                        // Slow here, so the helper takes a piece.
                        std::thread::sleep(std::time::Duration::from_millis(1));
                        k
                    },
                    |_| Ok(()),
                )
            })
            .is_err()
        });
        assert!(outcome, "the helper's panic reaches the caller");
    }
}
