//go:build !unix

package loadtest

import (
	"os/exec"
	"time"
)

// cpuTime is not measured here.
func cpuTime() time.Duration { return 0 }

// setSession leaves cmd in this program's session (there are none here).
func setSession(cmd *exec.Cmd) {}
