// Package intern numbers strings and uint64 keys densely (0, 1, 2, … in
// first-seen order) with open-addressing tables. The text metrics use it
// to turn tokens and n-grams into small integers, which they then count
// in slices: for the few hundred short-lived keys of one scoring call it
// is several times cheaper than a Go map, and a table is reused with
// Reset.
//
// Both tables hash with a random seed per table, so input cannot be
// crafted to collide.
package intern
