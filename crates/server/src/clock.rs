//! The server's clock: which virtual moment a wall-clock moment is.
//!
//! Virtual time follows the wall clock at `speed`× from an anchor: the
//! virtual moment `virtual_at` at wall moment `wall_at`. Pausing fixes
//! virtual time; resuming re-anchors it at the moment of resuming; a
//! jump of the run (the control API's `advance`) moves the anchor forward. So
//! virtual time never goes back, whatever the wall clock does.
//!
//! Pure arithmetic over milliseconds: the owner thread reads the wall
//! clock and hands it in, so the rules are tested without waiting.

/// The wall clock's milliseconds since the Unix epoch.
pub fn wall_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

#[derive(Clone, Debug, PartialEq)]
pub struct Clock {
    speed: f64,
    paused: bool,
    virtual_at: u64,
    wall_at: u64,
}

impl Clock {
    /// A running clock at virtual moment `virtual_now` at wall moment `wall`.
    pub fn new(speed: f64, virtual_now: u64, wall: u64) -> Clock {
        Clock {
            speed,
            paused: false,
            virtual_at: virtual_now,
            wall_at: wall,
        }
    }

    /// The virtual moment at wall moment `wall` (never before the anchor).
    pub fn virtual_at(&self, wall: u64) -> u64 {
        if self.paused {
            return self.virtual_at;
        }
        let elapsed = wall.saturating_sub(self.wall_at) as f64 * self.speed;
        self.virtual_at.saturating_add(elapsed as u64)
    }

    /// The wall moment virtual time reaches `t`, or `None` while paused.
    pub fn wall_at(&self, t: u64) -> Option<u64> {
        if self.paused {
            return None;
        }
        let ahead = t.saturating_sub(self.virtual_at) as f64 / self.speed;
        Some(self.wall_at.saturating_add(ahead.ceil() as u64))
    }

    pub fn paused(&self) -> bool {
        self.paused
    }

    pub fn speed(&self) -> f64 {
        self.speed
    }

    /// Stops virtual time at its moment at `wall`.
    pub fn pause(&mut self, wall: u64) {
        self.reanchor(wall);
        self.paused = true;
    }

    /// Starts virtual time again from where it stood, at `wall`.
    pub fn resume(&mut self, wall: u64) {
        self.reanchor(wall);
        self.paused = false;
    }

    /// Makes sure the clock is not behind `t` at `wall` (the engine's time
    /// after a jump or a replay): virtual time never goes back.
    pub fn catch_up(&mut self, t: u64, wall: u64) {
        if self.virtual_at(wall) < t {
            self.reanchor(wall);
            self.virtual_at = t;
        }
    }

    fn reanchor(&mut self, wall: u64) {
        self.virtual_at = self.virtual_at(wall);
        self.wall_at = wall;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn virtual_time_follows_the_wall_clock_at_its_speed() {
        let clock = Clock::new(10.0, 500, 1_000);
        assert_eq!(clock.virtual_at(1_000), 500);
        assert_eq!(clock.virtual_at(1_250), 3_000);
        assert_eq!(clock.wall_at(3_000), Some(1_250));
    }

    #[test]
    fn a_paused_clock_stands_still_and_resumes_from_where_it_stood() {
        let mut clock = Clock::new(1.0, 0, 0);
        clock.pause(100);
        assert_eq!(clock.virtual_at(5_000), 100);
        assert_eq!(clock.wall_at(200), None);
        clock.resume(5_000);
        assert_eq!(clock.virtual_at(5_050), 150);
    }

    #[test]
    fn an_advance_jumps_ahead_and_time_goes_on_from_there() {
        let mut clock = Clock::new(1.0, 0, 0);
        clock.catch_up(30_010, 10);
        assert_eq!(clock.virtual_at(10), 30_010);
        assert_eq!(clock.virtual_at(20), 30_020);
    }

    #[test]
    fn virtual_time_never_goes_back_when_the_wall_clock_does() {
        let clock = Clock::new(1.0, 700, 1_000);
        assert_eq!(clock.virtual_at(900), 700);
        let mut clock = clock;
        clock.catch_up(2_000, 1_000);
        assert_eq!(clock.virtual_at(1_000), 2_000);
        clock.catch_up(5, 1_000);
        assert_eq!(clock.virtual_at(1_000), 2_000);
    }
}
