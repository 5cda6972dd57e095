// Package version reports the version of the running alak build, for
// `alak --version`, GTP's version command and the AP property of SGF files.
package version

import "runtime/debug"

// String returns the module version, or the commit the build was made from
// (12 hex digits, "-dirty" when the tree had changes), or "devel".
func String() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	rev, dirty := "", false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if rev == "" {
		return "devel"
	}
	if dirty {
		rev += "-dirty"
	}
	return rev
}
