import sharp from "sharp";

/** Where the fixture says it was taken: a test reads the GPS back to prove it is gone. */
export const photoGpsLatitude = "48/1 51/1 2955/100";

/**
 * A photo as a phone hands it over, made on the spot rather than committed: 4032×3024 (12 MP),
 * grainy enough to weigh what a real one does (about 2.8 MB), stored sideways with EXIF
 * orientation 6 and a GPS position, as a phone held upright writes it.
 */
export async function phonePhoto({ width = 4032, height = 3024 } = {}): Promise<Buffer> {
  const grain = await sharp({
    create: { width: width / 2, height: height / 2, channels: 3, background: "#000", noise: { type: "gaussian", mean: 128, sigma: 40 } },
  })
    .resize(width, height, { kernel: "cubic" })
    .blur(0.6)
    .raw()
    .toBuffer();
  const light = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${String(width)}" height="${String(height)}"><defs><linearGradient id="g" x2="1" y2="1"><stop offset="0" stop-color="#e8a33d"/><stop offset="1" stop-color="#1d3557"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)" opacity="0.7"/></svg>`,
  );
  return sharp(grain, { raw: { width, height, channels: 3 } })
    .composite([{ input: light }])
    .jpeg({ quality: 90 })
    .withMetadata({ orientation: 6 })
    .withExifMerge({
      IFD0: { Make: "No Filter Phone", Model: "Test Camera" },
      IFD3: { GPSLatitudeRef: "N", GPSLatitude: photoGpsLatitude, GPSLongitudeRef: "E", GPSLongitude: "2/1 17/1 4050/100" },
    })
    .toBuffer();
}
