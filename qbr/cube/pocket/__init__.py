"""The 2x2x2 ("pocket") cube: facelets, corners, letters, normalisation and validation."""
