/*
 * qscount: a QEMU TCG plugin that counts the guest instructions a process executes.
 *
 * Loaded by qemu-user (`qemu-x86_64 -plugin qscount.so python ...`). At translation time every
 * translation block gets an inline "add its instruction count to qs_counter.insns" at its entry;
 * nothing is called back at run time, so the cost is one memory add per block executed.
 *
 * The counter is never reported by the process itself: the host reads it from the process's
 * memory (/proc/<pid>/mem) between commands, while the process is blocked, exactly as it reads
 * the kernel's CPU clock for the `cpu` meter. The magic string lets the host find the counter in
 * this library's writable mapping. A forked child inherits the counter (and the address), so the
 * host reads each process on its own and only ever uses differences between two readings.
 *
 * A guest execve would replace the emulated process with a native one, whose work nothing
 * counts: the plugin ends the process instead (exit status 121, QS_EXEC_REFUSED).
 *
 * The declarations below are the subset of QEMU's public plugin API (include/qemu/qemu-plugin.h,
 * API version 1, QEMU 4.2 and later) that this plugin uses; they are restated here so that
 * building needs only gcc, not QEMU's source tree.
 */
#include <stddef.h>
#include <stdint.h>
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

extern void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
                                                  qemu_plugin_vcpu_tb_trans_cb_t cb);
extern size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
extern void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb,
                                                     enum qemu_plugin_op op, void *ptr,
                                                     uint64_t imm);
extern void qemu_plugin_register_vcpu_syscall_cb(qemu_plugin_id_t id,
                                                 qemu_plugin_vcpu_syscall_cb_t cb);

/* Guest system calls that would leave the emulator: execve replaces the process with a program
 * that runs natively, uncounted. The process is ended instead (exit status QS_EXEC_REFUSED). */
#if defined(__x86_64__)
#define QS_NR_EXECVE 59
#define QS_NR_EXECVEAT 322
#elif defined(__aarch64__)
#define QS_NR_EXECVE 221
#define QS_NR_EXECVEAT 281
#else
#error "qscount knows the execve numbers of x86_64 and aarch64 only"
#endif
#define QS_EXEC_REFUSED 121

#define QS_EXPORT __attribute__((visibility("default")))

QS_EXPORT int qemu_plugin_version = 1;

struct qs_counter {
    char magic[16];
    uint64_t insns;
};

/* 16 bytes of magic, then the count; the host checks the layout (QSCOUNT_MAGIC in meters.py). */
QS_EXPORT volatile struct qs_counter qs_counter = {{'Q', 'S', 'C', 'O', 'U', 'N', 'T', '-', 'v',
                                                   '1', '-', 'M', 'A', 'G', 'I', 'C'},
                                                  0};

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb) {
    (void)id;
    qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64,
                                             (void *)&qs_counter.insns,
                                             (uint64_t)qemu_plugin_tb_n_insns(tb));
}

static void on_syscall(qemu_plugin_id_t id, unsigned int vcpu_index, int64_t num, uint64_t a1,
                       uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5, uint64_t a6,
                       uint64_t a7, uint64_t a8) {
    (void)id, (void)vcpu_index, (void)a1, (void)a2, (void)a3, (void)a4, (void)a5, (void)a6;
    (void)a7, (void)a8;
    if (num == QS_NR_EXECVE || num == QS_NR_EXECVEAT) {
        _exit(QS_EXEC_REFUSED);
    }
}

QS_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc,
                                  char **argv) {
    (void)info;
    (void)argc;
    (void)argv;
    qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
    qemu_plugin_register_vcpu_syscall_cb(id, on_syscall);
    return 0;
}
