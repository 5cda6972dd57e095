package rules

// KernelVersion numbers the behaviour of the kernel: which moves are legal,
// how a game ends and how it is counted, under every option. It goes up by
// one whenever a change alters any of them for some rule set (a bug fix
// included), so that a file recording what the kernel decided, such as a
// proof certificate (package proofcheck), can say which kernel it was made
// with and be refused by a kernel that might decide otherwise.
const KernelVersion = 1
