export type CopyResult = 'copied' | 'unsupported' | 'failed';

interface ClipboardEnv {
  clipboard?: Pick<Clipboard, 'writeText'>;
  secureContext: boolean;
  document: Document;
}

function browserEnv(): ClipboardEnv {
  return { clipboard: navigator.clipboard, secureContext: window.isSecureContext, document };
}

/** The old way, for pages served over plain HTTP: select a hidden textarea and ask for "copy". */
function copyWithSelection(text: string, doc: Document): CopyResult {
  if (typeof doc.execCommand !== 'function') return 'unsupported';
  const area = doc.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  doc.body.appendChild(area);
  area.select();
  try {
    return doc.execCommand('copy') ? 'copied' : 'failed';
  } catch {
    return 'failed';
  } finally {
    area.remove();
  }
}

/**
 * SPEC §8 copy: the Clipboard API where the browser offers it (secure contexts), else the selection
 * fallback; 'unsupported' when the browser has neither, 'failed' when the browser refused.
 */
export async function copyText(text: string, env: ClipboardEnv = browserEnv()): Promise<CopyResult> {
  if (env.clipboard && env.secureContext) {
    try {
      await env.clipboard.writeText(text);
      return 'copied';
    } catch {
      // Permission denied or no focus: the selection fallback may still work.
    }
  }
  return copyWithSelection(text, env.document);
}
