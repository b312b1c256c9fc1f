// Package queue is the bounded queue every stage of the sidecar puts in
// front of its work, configured by the stage's sending_queue block.
package queue
