/**
 * The web worker's side of serialised.ts, put in its place by the browser bundle: messages go
 * to the client as objects (postMessage), so there are no JSON bytes to keep: the answers are
 * kept as objects.
 */
import type * as NodeSerialised from '../serialised';
import { semanticTokens } from '../service/features/semanticTokens';
import { documentSymbols } from '../service/features/symbols';

export const encodedAnswer: typeof NodeSerialised.encodedAnswer = (answer) => answer;

export const installSerialisedAnswers: typeof NodeSerialised.installSerialisedAnswers = () => undefined;

export const outlineAnswer: typeof NodeSerialised.outlineAnswer = (_uri, doc, options, token) => documentSymbols(doc, options, token);

export const semanticTokensAnswer: typeof NodeSerialised.semanticTokensAnswer = (doc, token) => semanticTokens(doc, token);

export const forgetOutline: typeof NodeSerialised.forgetOutline = () => undefined;
