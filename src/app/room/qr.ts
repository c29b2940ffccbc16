import qrcode from 'qrcode-generator';

/**
 * A QR code (qrcode-generator, bundled; nothing leaves the page) as one SVG path of dark modules,
 * in module units with a 4-module quiet zone: the caller sizes the SVG.
 */
export interface QrPath {
  /** Side length in modules, quiet zone included. */
  size: number;
  d: string;
}

export function qrPath(text: string): QrPath {
  // Level M survives a projector's glare and a phone's angle; the type number grows with the URL.
  const qr = qrcode(0, 'M');
  qr.addData(text, 'Byte');
  qr.make();
  const n = qr.getModuleCount();
  const quiet = 4;
  let d = '';
  for (let r = 0; r < n; r++) {
    // One horizontal run per stretch of dark modules keeps the path short.
    for (let c = 0; c < n; c++) {
      if (!qr.isDark(r, c)) continue;
      let end = c;
      while (end + 1 < n && qr.isDark(r, end + 1)) end++;
      d += `M${c + quiet} ${r + quiet}h${end - c + 1}v1h${-(end - c + 1)}z`;
      c = end;
    }
  }
  return { size: n + 2 * quiet, d };
}

/** The dark modules as a grid (tests: finder patterns sit in three corners). */
export function qrModules(text: string): boolean[][] {
  const qr = qrcode(0, 'M');
  qr.addData(text, 'Byte');
  qr.make();
  const n = qr.getModuleCount();
  return Array.from({ length: n }, (_, r) => Array.from({ length: n }, (_, c) => qr.isDark(r, c)));
}
