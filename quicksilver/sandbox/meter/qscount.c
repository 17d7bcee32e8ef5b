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
 * The declarations below are the subset of QEMU's public plugin API (include/qemu/qemu-plugin.h,
 * API version 1, QEMU 4.2 and later) that this plugin uses; they are restated here so that
 * building needs only gcc, not QEMU's source tree.
 */
#include <stddef.h>
#include <stdint.h>

typedef uint64_t qemu_plugin_id_t;
typedef struct qemu_info_t qemu_info_t;
struct qemu_plugin_tb;
enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);

extern void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
                                                  qemu_plugin_vcpu_tb_trans_cb_t cb);
extern size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
extern void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb,
                                                     enum qemu_plugin_op op, void *ptr,
                                                     uint64_t imm);

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

QS_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc,
                                  char **argv) {
    (void)info;
    (void)argc;
    (void)argv;
    qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
    return 0;
}
