/*
 * qscount: a QEMU TCG plugin that counts the guest instructions a process executes.
 *
 * Loaded by qemu-user (`qemu-x86_64 -plugin qscount.so,byte_cost=1 python ...`). At translation
 * time every translation block gets an inline "add its instruction count to qs_counter.insns" at
 * its entry; nothing is called back at run time for the count, so its cost is one memory add per
 * block executed.
 *
 * The counter is never reported by the process itself: the host reads it from the process's
 * memory (/proc/<pid>/mem) between commands, while the process is blocked, exactly as it reads
 * the kernel's CPU clock for the `cpu` meter. The magic string lets the host find the counter in
 * this library's writable mapping. A forked child inherits the counter (and the address), so the
 * host reads each process on its own and only ever uses differences between two readings.
 *
 * The counter sits in the emulator's own memory, and qemu-user does not bound guest addresses:
 * native code running in the guest could reach it. So no native code the guest brings may run
 * (docs/sandbox.md, "The instruction counter"):
 *
 * - a guest execve would replace the emulated process with a native one, whose work nothing
 *   counts: the plugin ends the process instead (exit status QS_EXEC_REFUSED);
 * - a guest mapping of executable memory (mmap, mprotect, pkey_mprotect with PROT_EXEC) is
 *   allowed only for a file on a read-only mount (the interpreter, its extension modules and the
 *   shared libraries, all bound read-only into the sandbox). Anonymous executable memory, or code
 *   from a writable place (a memfd, a tmpfs file), ends the process (QS_MAP_REFUSED): a dlopen()
 *   of code the solution wrote, through importlib's ExtensionFileLoader for one, would otherwise
 *   run natively inside the emulator's address space and could rewrite the count.
 *
 * Work the guest hands to the kernel is not free either: the guest counter does not see what a
 * system call does, so a call that moves data (read, write and their vector, positional and
 * socket forms, getdents64, getrandom) is charged `byte_cost` instructions per byte it moved, on
 * its return (default 1; a copy done in Python costs about 0.25 instructions per byte under the
 * emulator). The zero-copy calls (splice, tee, vmsplice, sendfile, copy_file_range) are refused by
 * the sandbox's seccomp filter (quicksilver/sandbox/seccomp.py).
 *
 * Plugin arguments: byte_cost=N (instructions charged per byte a system call moves);
 * exec_maps=allow turns the executable-mapping guard off (tests of the host's tampering
 * detection only: the host builds the command line, the guest cannot change it).
 *
 * The declarations below are the subset of QEMU's public plugin API (include/qemu/qemu-plugin.h,
 * API version 1, QEMU 4.2 and later) that this plugin uses; they are restated here so that
 * building needs only gcc, not QEMU's source tree.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

typedef uint64_t qemu_plugin_id_t;
typedef struct qemu_info_t qemu_info_t;
struct qemu_plugin_tb;
enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
typedef void (*qemu_plugin_vcpu_syscall_cb_t)(qemu_plugin_id_t id, unsigned int vcpu_index,
                                              int64_t num, uint64_t a1, uint64_t a2, uint64_t a3,
                                              uint64_t a4, uint64_t a5, uint64_t a6, uint64_t a7,
                                              uint64_t a8);
typedef void (*qemu_plugin_vcpu_syscall_ret_cb_t)(qemu_plugin_id_t id, unsigned int vcpu_idx,
                                                  int64_t num, int64_t ret);

extern void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
                                                  qemu_plugin_vcpu_tb_trans_cb_t cb);
extern size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
extern void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb,
                                                     enum qemu_plugin_op op, void *ptr,
                                                     uint64_t imm);
extern void qemu_plugin_register_vcpu_syscall_cb(qemu_plugin_id_t id,
                                                 qemu_plugin_vcpu_syscall_cb_t cb);
extern void qemu_plugin_register_vcpu_syscall_ret_cb(qemu_plugin_id_t id,
                                                     qemu_plugin_vcpu_syscall_ret_cb_t cb);

/* Guest system call numbers (the guest is the host's own architecture). */
#if defined(__x86_64__)
#define QS_NR_READ 0
#define QS_NR_WRITE 1
#define QS_NR_PREAD64 17
#define QS_NR_PWRITE64 18
#define QS_NR_READV 19
#define QS_NR_WRITEV 20
#define QS_NR_MMAP 9
#define QS_NR_MPROTECT 10
#define QS_NR_SENDTO 44
#define QS_NR_RECVFROM 45
#define QS_NR_SENDMSG 46
#define QS_NR_RECVMSG 47
#define QS_NR_EXECVE 59
#define QS_NR_GETDENTS64 217
#define QS_NR_PREADV 295
#define QS_NR_PWRITEV 296
#define QS_NR_GETRANDOM 318
#define QS_NR_EXECVEAT 322
#define QS_NR_PREADV2 327
#define QS_NR_PWRITEV2 328
#define QS_NR_PKEY_MPROTECT 329
#elif defined(__aarch64__)
#define QS_NR_READ 63
#define QS_NR_WRITE 64
#define QS_NR_PREAD64 67
#define QS_NR_PWRITE64 68
#define QS_NR_READV 65
#define QS_NR_WRITEV 66
#define QS_NR_MMAP 222
#define QS_NR_MPROTECT 226
#define QS_NR_SENDTO 206
#define QS_NR_RECVFROM 207
#define QS_NR_SENDMSG 211
#define QS_NR_RECVMSG 212
#define QS_NR_EXECVE 221
#define QS_NR_GETDENTS64 61
#define QS_NR_PREADV 69
#define QS_NR_PWRITEV 70
#define QS_NR_GETRANDOM 278
#define QS_NR_EXECVEAT 281
#define QS_NR_PREADV2 286
#define QS_NR_PWRITEV2 287
#define QS_NR_PKEY_MPROTECT 288
#else
#error "qscount knows the system call numbers of x86_64 and aarch64 only"
#endif

#define QS_PROT_EXEC 0x4
#define QS_MAP_ANONYMOUS 0x20

#define QS_EXEC_REFUSED 121 /* EXEC_REFUSED_EXIT in quicksilver/meters.py */
#define QS_MAP_REFUSED 122  /* MAP_REFUSED_EXIT in quicksilver/meters.py */

#define QS_EXPORT __attribute__((visibility("default")))

QS_EXPORT int qemu_plugin_version = 1;

struct qs_counter {
    char magic[16];
    uint64_t insns;
};

/* 16 bytes of magic, then the count; the host checks the layout (QSCOUNT_MAGIC in meters.py). */
QS_EXPORT volatile struct qs_counter qs_counter = {{'Q', 'S', 'C', 'O', 'U', 'N', 'T', '-', 'v',
                                                   '2', '-', 'M', 'A', 'G', 'I', 'C'},
                                                  0};

static uint64_t byte_cost = 1;
static int guard_maps = 1;

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb) {
    (void)id;
    qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64,
                                             (void *)&qs_counter.insns,
                                             (uint64_t)qemu_plugin_tb_n_insns(tb));
}

/* An executable mapping of this descriptor is allowed: a file on a read-only mount. */
static int trusted_code(int64_t fd) {
    struct statvfs st;
    if (fd < 0 || fstatvfs((int)fd, &st) != 0) {
        return 0;
    }
    return (st.f_flag & ST_RDONLY) != 0;
}

static void on_syscall(qemu_plugin_id_t id, unsigned int vcpu_index, int64_t num, uint64_t a1,
                       uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5, uint64_t a6,
                       uint64_t a7, uint64_t a8) {
    (void)id, (void)vcpu_index, (void)a1, (void)a2, (void)a6, (void)a7, (void)a8;
    if (num == QS_NR_EXECVE || num == QS_NR_EXECVEAT) {
        _exit(QS_EXEC_REFUSED);
    }
    if (!guard_maps) {
        return;
    }
    if (num == QS_NR_MMAP && (a3 & QS_PROT_EXEC) &&
        ((a4 & QS_MAP_ANONYMOUS) || !trusted_code((int64_t)a5))) {
        _exit(QS_MAP_REFUSED);
    }
    if ((num == QS_NR_MPROTECT || num == QS_NR_PKEY_MPROTECT) && (a3 & QS_PROT_EXEC)) {
        _exit(QS_MAP_REFUSED);
    }
}

static void on_syscall_ret(qemu_plugin_id_t id, unsigned int vcpu_idx, int64_t num,
                           int64_t ret) {
    (void)id, (void)vcpu_idx;
    if (ret <= 0) {
        return;
    }
    switch (num) {
    case QS_NR_READ:
    case QS_NR_WRITE:
    case QS_NR_PREAD64:
    case QS_NR_PWRITE64:
    case QS_NR_READV:
    case QS_NR_WRITEV:
    case QS_NR_PREADV:
    case QS_NR_PWRITEV:
    case QS_NR_PREADV2:
    case QS_NR_PWRITEV2:
    case QS_NR_SENDTO:
    case QS_NR_RECVFROM:
    case QS_NR_SENDMSG:
    case QS_NR_RECVMSG:
    case QS_NR_GETDENTS64:
    case QS_NR_GETRANDOM:
        qs_counter.insns += (uint64_t)ret * byte_cost;
        break;
    default:
        break;
    }
}

QS_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc,
                                  char **argv) {
    (void)info;
    for (int i = 0; i < argc; i++) {
        if (strncmp(argv[i], "byte_cost=", 10) == 0) {
            byte_cost = strtoull(argv[i] + 10, NULL, 10);
        } else if (strcmp(argv[i], "exec_maps=allow") == 0) {
            guard_maps = 0;
        } else {
            return -1; /* an argument this plugin does not know: refuse to start */
        }
    }
    qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
    qemu_plugin_register_vcpu_syscall_cb(id, on_syscall);
    qemu_plugin_register_vcpu_syscall_ret_cb(id, on_syscall_ret);
    return 0;
}
