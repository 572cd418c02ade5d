// Draws public/favicon.ico: three courses of dark bricks on the default accent green, in a
// rounded square, at 16 and 32 px (PNG images inside an ICO). Run again after changing it:
//   node scripts/make-favicon.mjs
import { Buffer } from "node:buffer";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { deflateSync } from "node:zlib";
import { ROOT } from "./setup-local.mjs";

const ACCENT = [0x00, 0xd1, 0x57]; // the default brand accent, hsl(145 100% 41%)
const INK = [0x0b, 0x12, 0x20]; // the default dark background, hsl(222 47% 7%)

// On a 32-unit square: x0, y0, x1, y1 of each brick.
const BRICKS = [
  [6, 8, 15, 12],
  [17, 8, 26, 12],
  [6, 14, 10, 18],
  [12, 14, 20, 18],
  [22, 14, 26, 18],
  [6, 20, 15, 24],
  [17, 20, 26, 24],
];

function insideRoundedSquare(x, y, radius = 7) {
  const cx = Math.min(Math.max(x, radius), 32 - radius);
  const cy = Math.min(Math.max(y, radius), 32 - radius);
  return (x - cx) ** 2 + (y - cy) ** 2 <= radius ** 2;
}

/** RGBA pixels of a size x size icon, 4 x 4 samples per pixel. */
function draw(size) {
  const px = Buffer.alloc(size * size * 4);
  const n = 4;
  for (let py = 0; py < size; py++)
    for (let pxX = 0; pxX < size; pxX++) {
      let cover = 0;
      let ink = 0;
      for (let sy = 0; sy < n; sy++)
        for (let sx = 0; sx < n; sx++) {
          const x = ((pxX + (sx + 0.5) / n) * 32) / size;
          const y = ((py + (sy + 0.5) / n) * 32) / size;
          if (!insideRoundedSquare(x, y)) continue;
          cover++;
          if (BRICKS.some(([x0, y0, x1, y1]) => x >= x0 && x < x1 && y >= y0 && y < y1)) ink++;
        }
      const i = (py * size + pxX) * 4;
      const t = cover ? ink / cover : 0;
      for (let c = 0; c < 3; c++) px[i + c] = Math.round(ACCENT[c] * (1 - t) + INK[c] * t);
      px[i + 3] = Math.round((255 * cover) / (n * n));
    }
  return px;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

function png(size) {
  const rgba = draw(size);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA
  const rows = [];
  for (let y = 0; y < size; y++) rows.push(Buffer.from([0]), rgba.subarray(y * size * 4, (y + 1) * size * 4));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(Buffer.concat(rows), { level: 9 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

function ico(sizes) {
  const images = sizes.map(png);
  const head = Buffer.alloc(6 + 16 * images.length);
  head.writeUInt16LE(0, 0);
  head.writeUInt16LE(1, 2); // icon
  head.writeUInt16LE(images.length, 4);
  let offset = head.length;
  images.forEach((img, i) => {
    const e = 6 + 16 * i;
    head[e] = sizes[i] % 256;
    head[e + 1] = sizes[i] % 256;
    head.writeUInt16LE(1, e + 4); // colour planes
    head.writeUInt16LE(32, e + 6); // bits per pixel
    head.writeUInt32LE(img.length, e + 8);
    head.writeUInt32LE(offset, e + 12);
    offset += img.length;
  });
  return Buffer.concat([head, ...images]);
}

const out = path.join(ROOT, "public", "favicon.ico");
writeFileSync(out, ico([16, 32]));
console.log(`wrote ${path.relative(ROOT, out)}`);
