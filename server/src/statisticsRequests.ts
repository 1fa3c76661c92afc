/**
 * LSP wiring of the statistics: `paperDigest/statistics` and `paperDigest/rollup` (declared in
 * protocol.ts), answered from the workspace index. The statistics are kept per index generation
 * and scope, so a dashboard that asks again after every change of another file pays once.
 */
import * as fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { CancellationToken, RequestType, TextDocuments } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { RollupRequest, StatisticsRequest } from './protocol';
import { rollup } from './service/features/rollup';
import { DigestStatistics, digestStatistics } from './service/features/statistics';
import type { WorkspaceIndex } from './service/workspaceIndex';
import { DEFAULT_SCAN_LIMITS } from './workspace';

export interface StatisticsHost {
  readonly documents: TextDocuments<TextDocument>;
  readonly index: WorkspaceIndex;
  /** The index's form of a URI a client sent (`file:` URIs may be encoded otherwise). */
  readonly canonical: (uri: string) => string;
  /** Settles when the workspace index is current (first scan done, pending edits indexed). */
  readonly ready: () => Promise<void>;
  /** Registers a request by its method: a failure logged and answered as an error, params of any shape given to the handler as `(params, token)`. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly onRequest: <P, R>(type: RequestType<P, R, any>, handler: (params: P, token: CancellationToken) => R | Promise<R>) => void;
}

/** Registers the statistics requests on the connection. */
export function registerStatisticsRequests(host: StatisticsHost): void {
  let last: { generation: number; uri: string | undefined; stats: DigestStatistics } | undefined;

  host.onRequest(StatisticsRequest, async (params, token) => {
    await host.ready();
    const uri = typeof params?.uri === 'string' ? host.canonical(params.uri) : undefined;
    if (last && last.generation === host.index.generation && last.uri === uri) {
      return last.stats;
    }
    const stats = digestStatistics(host.index, { uri }, token);
    if (!token.isCancellationRequested) {
      last = { generation: host.index.generation, uri, stats };
    }
    return stats;
  });

  host.onRequest(RollupRequest, async (params, token) => {
    await host.ready();
    // A format it does not make: the empty answer, as exportPapers gives for one.
    const format = params?.format === undefined ? 'digest' : params.format;
    if (format !== 'digest' && format !== 'markdown') {
      return { text: '', paperCount: 0 };
    }
    const period = typeof params?.period === 'string' ? params.period : '';
    const only = typeof params?.uri === 'string' ? host.canonical(params.uri) : undefined;
    const result = rollup(host.index, period, format, (uri) => host.documents.get(uri)?.getText() ?? diskText(uri), token, only);
    return { text: result.text, paperCount: result.paperCount };
  });
}

/** The text of a regular file of at most the scan's size cap; undefined for anything else. */
function diskText(uri: string): string | undefined {
  try {
    const file = fileURLToPath(uri);
    const stat = fs.lstatSync(file);
    if (!stat.isFile() || stat.size > DEFAULT_SCAN_LIMITS.maxFileBytes) {
      return undefined;
    }
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
