/**
 * Files of this machine's disk written by the desktop extension (Node only): an export saved to
 * a file goes through the server's atomic writer (server/src/fs/safeFile.ts), which keeps an
 * existing file's mode and owner, refuses a symbolic link or a file with other names, and leaves
 * no temporary file behind, where VS Code's file service replaces a file by deleting it first.
 */
import { MessageError, messageText } from '../../server/src/service/cliMessages';
import type { MessageLanguage } from '../../server/src/service/messages';
import { writeFileAtomic } from '../../server/src/fs/safeFile';

/**
 * Writes `text` to `file` atomically; a refusal or a failure is thrown as an Error whose message
 * says why in `language` (English for `both`, as notifications are).
 *
 * @example await writeLocalFile('/home/me/papers.bib', bibtex, 'zh-cn');
 */
export async function writeLocalFile(file: string, text: string, language: MessageLanguage): Promise<void> {
  try {
    await writeFileAtomic(file, text, { hash: false });
  } catch (error) {
    if (error instanceof MessageError) {
      const { en, zh } = messageText(error.ref);
      throw new Error(language === 'zh-cn' ? zh : en);
    }
    throw error;
  }
}
