// Sound effects: short blips made on the spot with WebAudio (no sound files), off until the player turns
// them on with the top bar's toggle (remembered). A browser without WebAudio stays silent.

import { readPref, toggleButton, writePref } from "./prefs.js";

const KEY = "arena.sound";
// Each effect: notes of [frequency Hz, start s, length s], a wave shape and a peak volume.
const EFFECTS = {
  move: { wave: "triangle", gain: 0.12, notes: [[660, 0, 0.05]] },
  deal: { wave: "triangle", gain: 0.1, notes: [[520, 0, 0.04], [600, 0.05, 0.04]] },
  refused: { wave: "square", gain: 0.06, notes: [[180, 0, 0.09], [150, 0.1, 0.12]] },
  won: { wave: "sine", gain: 0.14, notes: [[523, 0, 0.12], [659, 0.12, 0.12], [784, 0.24, 0.12], [1047, 0.36, 0.3]] },
  lost: { wave: "sine", gain: 0.1, notes: [[392, 0, 0.18], [330, 0.2, 0.18], [262, 0.4, 0.3]] },
};

let audio = null;

export const soundOn = () => readPref(KEY) === "on";

/** Play one effect by name, if sound is on. */
export function playSound(name) {
  const effect = EFFECTS[name];
  if (!effect || !soundOn()) return;
  try {
    audio ??= new AudioContext();
    const start = audio.currentTime + 0.01;
    for (const [frequency, at, length] of effect.notes) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = effect.wave;
      osc.frequency.value = frequency;
      // A quick rise and an exponential fall: a blip, not a click.
      gain.gain.setValueAtTime(0.0001, start + at);
      gain.gain.exponentialRampToValueAtTime(effect.gain, start + at + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + at + length);
      osc.connect(gain).connect(audio.destination);
      osc.start(start + at);
      osc.stop(start + at + length + 0.02);
    }
  } catch {
    // no WebAudio here: silence
  }
}

export function mountSoundToggle() {
  if (document.getElementById("sound-toggle")) return;
  toggleButton("sound-toggle", {
    label: "Sound effects",
    icon: "♪",
    pressed: soundOn(),
    onToggle: () => {
      writePref(KEY, soundOn() ? "off" : "on");
      if (soundOn()) playSound("move"); // a first sound, and the browser's audio unlocked by this click
      return soundOn();
    },
  });
}
