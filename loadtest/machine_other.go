//go:build !unix

package loadtest

import "time"

// cpuTime is not measured here.
func cpuTime() time.Duration { return 0 }
