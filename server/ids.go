package server

import "crypto/rand"

// idAlphabet is the game ids' alphabet: 31 letters and digits, without
// those read alike (i, l, o, 0, 1).
const idAlphabet = "abcdefghjkmnpqrstuvwxyz23456789"

// idLength is a game id's length: 10 letters, each a uniform draw from the
// 31 of idAlphabet, 10·log2(31) ≈ 49.5 bits.
const idLength = 10

// newID returns a game id. Each letter is drawn uniformly: a random byte is
// kept only below 248 (8·31), so that its remainder by 31 takes every value
// equally often, and drawn again otherwise (1 byte in 32).
func newID() string {
	const keep = 256 - 256%len(idAlphabet)
	out := make([]byte, 0, idLength)
	buf := make([]byte, idLength+4)
	for len(out) < idLength {
		if _, err := rand.Read(buf); err != nil {
			panic(err) // crypto/rand does not fail on supported systems
		}
		for _, b := range buf {
			if int(b) < keep && len(out) < idLength {
				out = append(out, idAlphabet[int(b)%len(idAlphabet)])
			}
		}
	}
	return string(out)
}
