// The shared clock of a race replay: one time (ms since the start signal) that drives every racer's
// board, played at a chosen speed, scrubbed, or stepped from one logged move (any racer's) to the
// next. No DOM: the page draws whatever time this says, whenever `onChange` is called.

export const RACE_SPEEDS = [1, 2, 4, 8, 16];
const TICK_MS = 50;

/** The last step of `steps` whose time is at or before `t` (steps[0], the deal, is at 0). */
export function stepAt(steps, t) {
  let low = 0;
  let high = steps.length - 1;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if ((steps[middle].elapsed_ms ?? 0) <= t) low = middle;
    else high = middle - 1;
  }
  return low;
}

export class RaceClock {
  /** `marks`: the times of every logged move of any racer, `duration` the last; `onChange(clock)`. */
  constructor(marks, duration, onChange) {
    this.marks = [...new Set(marks)].sort((a, b) => a - b);
    this.duration = duration;
    this.t = 0;
    this.playing = false;
    this.speed = 1;
    this.onChange = onChange;
    this.timer = null;
    this.lastTick = 0;
  }

  seek(t) {
    const next = Math.max(0, Math.min(this.duration, Math.round(Number(t) || 0)));
    const moved = next !== this.t;
    this.t = next;
    if (this.playing && next >= this.duration) this.pause(); // nothing left to play
    else if (moved) this.onChange(this);
  }

  /** To the next logged move of any racer after the time shown; back to the one before it. */
  forward() { this.seek(this.marks.find((m) => m > this.t) ?? this.duration); }
  back() { this.seek([...this.marks].reverse().find((m) => m < this.t) ?? 0); }
  first() { this.seek(0); }
  end() { this.seek(this.duration); }

  play() {
    if (this.playing || this.duration === 0) return;
    this.playing = true;
    if (this.t >= this.duration) this.t = 0; // play again from the start
    this.lastTick = performance.now();
    this.timer = setInterval(() => this.tick(), TICK_MS);
    this.onChange(this);
  }

  tick() {
    const now = performance.now();
    const passed = (now - this.lastTick) * this.speed;
    this.lastTick = now;
    this.seek(this.t + passed);
  }

  pause() {
    if (!this.playing) return;
    this.playing = false;
    clearInterval(this.timer);
    this.timer = null;
    this.onChange(this);
  }

  toggle() {
    if (this.playing) this.pause();
    else this.play();
  }

  setSpeed(speed) {
    const chosen = Number(speed);
    if (!RACE_SPEEDS.includes(chosen) || chosen === this.speed) return;
    this.speed = chosen;
    this.onChange(this);
  }
}
