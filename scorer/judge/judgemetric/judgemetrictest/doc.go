// Package judgemetrictest is the test kit of the judge metric packages: a
// scripted judge that records its requests, marking sanitizers that wrap
// untrusted content in a recognisable envelope, a registry environment
// wired to both, and the assertions those packages share (content only
// inside the envelope, golden prompt files, error classes).
//
// It is imported by tests only.
package judgemetrictest
