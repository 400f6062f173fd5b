"""The libvips "speed and memory use" chain with Pillow, as in the libvips benchmark's pillow.py."""
import sys
from PIL import Image, ImageFilter

im = Image.open(sys.argv[1])
w, h = im.size
im = im.crop((100, 100, w - 100, h - 100))
im = im.resize((int((w - 200) * 0.9), int((h - 200) * 0.9)), Image.BILINEAR)
im = im.filter(ImageFilter.Kernel((3, 3), (-1, -1, -1, -1, 16, -1, -1, -1, -1), scale=8))
im.save(sys.argv[2], quality=90)
