// Package dataset reads offline evaluation data into scorer Instances:
// Vertex AI style rows (JSON lines, a JSON array or CSV with JSON-valued
// cells), Ragas multi-turn samples, and Google ADK eval sets, which give
// the expected side of each case and are joined with replayed runs.
//
// Every decoding error names the row (0-based, as in the metrics table)
// and the column, so a user can find the bad cell.
package dataset
