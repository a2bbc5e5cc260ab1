// Playback of a replay's steps: the current step, play and pause, speed. No DOM: the page renders
// whatever step this says, whenever `onChange` is called.

export const SPEEDS = [0.5, 1, 2, 4, 8];
const STEP_MS = 1000; // one move a second at 1x

export class ReplayPlayer {
  /** `last`: the last step's index (the number of moves); `onChange(player)` after every change. */
  constructor(last, onChange) {
    this.last = last;
    this.step = 0;
    this.playing = false;
    this.speed = 1;
    this.onChange = onChange;
    this.timer = null;
  }

  seek(step) {
    const next = Math.max(0, Math.min(this.last, Math.round(Number(step) || 0)));
    const moved = next !== this.step;
    this.step = next;
    if (this.playing) this.schedule();
    if (this.playing && next === this.last) this.pause(); // nothing left to play
    else if (moved) this.onChange(this);
  }

  forward() { this.seek(this.step + 1); }
  back() { this.seek(this.step - 1); }
  first() { this.seek(0); }
  end() { this.seek(this.last); }

  play() {
    if (this.playing || this.last === 0) return;
    this.playing = true;
    if (this.step === this.last) this.step = 0; // play again from the deal
    this.schedule();
    this.onChange(this);
  }

  pause() {
    if (!this.playing) return;
    this.playing = false;
    clearTimeout(this.timer);
    this.timer = null;
    this.onChange(this);
  }

  toggle() {
    if (this.playing) this.pause();
    else this.play();
  }

  setSpeed(speed) {
    const chosen = Number(speed);
    if (!SPEEDS.includes(chosen) || chosen === this.speed) return;
    this.speed = chosen;
    if (this.playing) this.schedule();
    this.onChange(this);
  }

  schedule() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.seek(this.step + 1), STEP_MS / this.speed);
  }

  stop() {
    clearTimeout(this.timer);
    this.timer = null;
    this.playing = false;
  }
}
