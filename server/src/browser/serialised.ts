/**
 * The web worker's side of serialised.ts, put in its place by the browser bundle: messages go
 * to the client as objects (postMessage), so there are no JSON bytes to reuse.
 */
import type * as NodeSerialised from '../serialised';

export const serialiseOnce: typeof NodeSerialised.serialiseOnce = (answer) => answer;

export const installSerialisedAnswers: typeof NodeSerialised.installSerialisedAnswers = () => undefined;

export const serialiseOutline: typeof NodeSerialised.serialiseOutline = (_uri, outline) => outline;

export const forgetOutline: typeof NodeSerialised.forgetOutline = () => undefined;
