// Package swar reads text a machine word at a time ("SIMD within a
// register"): the tokenizers and JSON scanners load eight bytes at once
// to find the first byte of interest with a few integer operations.
package swar

// Load64 returns the eight bytes of s from i on as a word, the first in
// the low byte. i+8 must not exceed len(s).
func Load64(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// Load32 returns the four bytes of s from i on as a word, the first in
// the low byte. i+4 must not exceed len(s).
func Load32(s string, i int) uint32 {
	s = s[i : i+4]
	return uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
}

// LowBytes returns the mask of the low n bytes of a word: the first n
// bytes of a Load64. n runs from 0 to 8.
func LowBytes(n int) uint64 { return ^uint64(0) >> (64 - 8*uint(n)) }
