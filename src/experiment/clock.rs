//! The time an experiment goes by: the monotonic clock, or a scripted
//! clock that moves only when a scripted run ([`super::scripted`]) takes
//! its time.
//!
//! Everything that decides or shows something by the time during an
//! experiment reads this clock: the runner's batch sizes, `--runs auto`'s
//! budget (`--max-time`) and round times, and the progress display's
//! elapsed time, ETA and redraws. A [`Ticker`] is how the display moves
//! while a run goes on: on the real clock a thread calls it every period;
//! on a scripted clock it is called as the scripted time passes each of
//! its instants, so what it draws is the same on every machine, loaded or
//! not.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::measure::sys;

/// The real clock, or a scripted one (cloning shares it).
#[derive(Clone, Default)]
pub struct Clock {
    scripted: Option<Arc<Scripted>>,
}

/// A clock that stands still until [`Clock::advance`] moves it.
struct Scripted {
    /// The instant scripted time 0 stands for.
    origin: Instant,
    /// The wall-clock time (µs since the Unix epoch) at scripted time 0.
    origin_unix_us: i64,
    /// Scripted time since the origin, in nanoseconds.
    now: AtomicU64,
    timers: Mutex<Vec<Timer>>,
}

/// A ticker on a scripted clock: when it is next due, and what it does.
struct Timer {
    every: Duration,
    next: Duration,
    stopped: Arc<AtomicBool>,
    tick: Box<dyn FnMut() -> bool + Send>,
}

impl Clock {
    /// The monotonic clock (CLOCK_MONOTONIC through [`Instant`]).
    pub fn real() -> Clock {
        Clock::default()
    }

    /// A clock at time 0 that moves only by [`Clock::advance`]; its wall
    /// clock starts at the real one's now.
    pub fn scripted() -> Clock {
        Clock {
            scripted: Some(Arc::new(Scripted {
                origin: Instant::now(),
                origin_unix_us: sys::realtime_us(),
                now: AtomicU64::new(0),
                timers: Mutex::new(Vec::new()),
            })),
        }
    }

    pub fn is_scripted(&self) -> bool {
        self.scripted.is_some()
    }

    pub fn now(&self) -> Instant {
        match &self.scripted {
            None => Instant::now(),
            Some(s) => s.origin + s.elapsed(),
        }
    }

    /// The time from `earlier` to now (zero if `earlier` is later).
    pub fn since(&self, earlier: Instant) -> Duration {
        self.now().saturating_duration_since(earlier)
    }

    /// Now as wall-clock time, microseconds since the Unix epoch (for the
    /// records' start times and the JSON's provenance).
    pub fn unix_us(&self) -> i64 {
        match &self.scripted {
            None => sys::realtime_us(),
            Some(s) => {
                let us = i64::try_from(s.elapsed().as_micros()).unwrap_or(i64::MAX);
                s.origin_unix_us.saturating_add(us)
            }
        }
    }

    /// Moves a scripted clock on by `by`, calling every ticker whose
    /// instant it passes, at that instant, in the order of their instants.
    /// The real clock moves by itself: on it this does nothing.
    pub fn advance(&self, by: Duration) {
        let Some(s) = &self.scripted else {
            return;
        };
        let end = s.elapsed().saturating_add(by);
        loop {
            let mut timers = s.timers.lock().unwrap_or_else(|e| e.into_inner());
            timers.retain(|t| !t.stopped.load(Ordering::SeqCst));
            let due = (timers.iter_mut())
                .filter(|t| t.next <= end)
                .min_by_key(|t| t.next);
            let Some(timer) = due else { break };
            s.set(timer.next.max(s.elapsed()));
            timer.next += timer.every;
            // The tick reads the clock, never the timers: it runs with
            // them locked, so that a ticker stopped meanwhile is not lost.
            if !(timer.tick)() {
                timer.stopped.store(true, Ordering::SeqCst);
            }
        }
        s.set(end);
    }

    /// Calls `tick` every `every` until it returns false or the returned
    /// [`Ticker`] is stopped: from a thread of its own on the real clock,
    /// from [`Clock::advance`] on a scripted one. `name` names the thread.
    pub fn every(
        &self,
        name: &str,
        every: Duration,
        mut tick: impl FnMut() -> bool + Send + 'static,
    ) -> Ticker {
        let stopped = Arc::new(AtomicBool::new(false));
        let thread = match &self.scripted {
            Some(s) => {
                let mut timers = s.timers.lock().unwrap_or_else(|e| e.into_inner());
                timers.push(Timer {
                    every: every.max(Duration::from_nanos(1)),
                    next: s.elapsed() + every,
                    stopped: Arc::clone(&stopped),
                    tick: Box::new(tick),
                });
                None
            }
            None => {
                let stop = Arc::clone(&stopped);
                std::thread::Builder::new()
                    .name(name.into())
                    .spawn(move || loop {
                        // Woken early by `Ticker::stop`: the end waits for
                        // nothing.
                        std::thread::park_timeout(every);
                        if stop.load(Ordering::SeqCst) || !tick() {
                            return;
                        }
                    })
                    .ok()
            }
        };
        Ticker { stopped, thread }
    }
}

impl Scripted {
    fn elapsed(&self) -> Duration {
        Duration::from_nanos(self.now.load(Ordering::SeqCst))
    }

    fn set(&self, t: Duration) {
        let ns = u64::try_from(t.as_nanos()).unwrap_or(u64::MAX);
        self.now.store(ns, Ordering::SeqCst);
    }
}

/// A ticker started by [`Clock::every`]; stopped when dropped.
pub struct Ticker {
    stopped: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Ticker {
    /// No tick starts after this returns.
    pub fn stop(&mut self) {
        self.stopped.store(true, Ordering::SeqCst);
        if let Some(t) = self.thread.take() {
            t.thread().unpark();
            let _ = t.join();
        }
    }
}

impl Drop for Ticker {
    fn drop(&mut self) {
        self.stop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scripted_clock_moves_only_when_advanced() {
        let clock = Clock::scripted();
        let (t0, unix0) = (clock.now(), clock.unix_us());
        std::thread::sleep(Duration::from_millis(5));
        assert_eq!(clock.since(t0), Duration::ZERO);
        clock.advance(Duration::from_millis(1500));
        assert_eq!(clock.since(t0), Duration::from_millis(1500));
        assert_eq!(clock.unix_us() - unix0, 1_500_000);
        // Clones share the time.
        let other = clock.clone();
        other.advance(Duration::from_micros(250));
        assert_eq!(clock.since(t0), Duration::from_micros(1_500_250));
        assert!(clock.is_scripted() && !Clock::real().is_scripted());
    }

    #[test]
    fn tickers_are_called_at_each_instant_passed_until_stopped() {
        let clock = Clock::scripted();
        let start = clock.now();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let (c, s) = (clock.clone(), Arc::clone(&seen));
        let mut ticker = clock.every("t", Duration::from_millis(250), move || {
            s.lock().unwrap().push(c.since(start).as_millis());
            true
        });
        clock.advance(Duration::from_millis(100));
        assert!(seen.lock().unwrap().is_empty());
        clock.advance(Duration::from_millis(700));
        assert_eq!(*seen.lock().unwrap(), [250, 500, 750]);
        assert_eq!(clock.since(start), Duration::from_millis(800));
        ticker.stop();
        clock.advance(Duration::from_secs(10));
        assert_eq!(seen.lock().unwrap().len(), 3, "none after stop");
    }

    #[test]
    fn a_ticker_that_returns_false_is_called_no_more() {
        let clock = Clock::scripted();
        let calls = Arc::new(AtomicU64::new(0));
        let c = Arc::clone(&calls);
        let _ticker = clock.every("t", Duration::from_secs(1), move || {
            c.fetch_add(1, Ordering::SeqCst) < 1
        });
        clock.advance(Duration::from_secs(5));
        assert_eq!(calls.load(Ordering::SeqCst), 2);
    }

    #[test]
    fn the_real_clock_ticks_from_a_thread_and_stops_at_once() {
        let clock = Clock::real();
        let calls = Arc::new(AtomicU64::new(0));
        let c = Arc::clone(&calls);
        let mut ticker = clock.every("t", Duration::from_secs(60), move || {
            c.fetch_add(1, Ordering::SeqCst);
            true
        });
        let asked = Instant::now();
        ticker.stop();
        // Stopping wakes the thread rather than wait out its period.
        assert!(asked.elapsed() < Duration::from_secs(30));
        assert_eq!(calls.load(Ordering::SeqCst), 0);
        clock.advance(Duration::from_secs(1));
    }
}
