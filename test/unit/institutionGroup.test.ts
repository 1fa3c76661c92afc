import * as assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { institutionGroup, institutionGroups } from '../../server/src/service/institutionGroup';

describe('institutionGroup', () => {
  test('Should name the institution a department, school, college or institute belongs to', () => {
    const cases: [string, string][] = [
      ['College of Computer Science and Artificial Intelligence, Fudan University', 'Fudan University'],
      ['Institute of Trustworthy Embodied AI, Fudan University', 'Fudan University'],
      ['Graduate School of AI, KAIST', 'KAIST'],
      ['Large Language Department, Tencent', 'Tencent'],
      ['Department of EECS, University of California, Berkeley', 'University of California, Berkeley'],
      ['Oxford Internet Institute, University of Oxford', 'University of Oxford'],
      ['Engineering, Shanghai Jiao Tong University', 'Shanghai Jiao Tong University'],
    ];
    for (const [name, label] of cases) {
      assert.equal(institutionGroup({ name }).label, label, name);
      assert.equal(institutionGroup({ name }).departmentOnly, false, name);
    }
  });

  test('Should keep institutions that are not departments whole, with their translation', () => {
    for (const name of ['Harbin Institute of Technology, Shenzhen (HITSZ)', 'Mila - Québec AI Institute, Canada', "Huawei Noah's Ark Lab (Montreal Research Center), Canada", 'Kyoto University', 'Shanghai Key Laboratory of Multimodal Embodied AI', 'Department of Computer Science Columbia University']) {
      const group = institutionGroup({ name, translation: '译名' });
      assert.equal(group.label, name);
      assert.equal(group.translation, '译名');
      assert.equal(group.departmentOnly, false, name);
    }
  });

  test('Should key a department named alone with the other institutions of its line, or with the paper', () => {
    const alone = institutionGroups([{ name: 'Department of Computer Science' }], 'a#0');
    const elsewhere = institutionGroups([{ name: 'Department of Computer Science' }], 'b#0');
    assert.equal(alone[0].departmentOnly, true);
    assert.notEqual(alone[0].key, elsewhere[0].key);
    const withTencent = institutionGroups([{ name: 'Department of Computer Science' }, { name: 'Tencent' }], 'a#0');
    const withTencentToo = institutionGroups([{ name: 'tencent' }, { name: 'Department of  Computer Science' }], 'b#0');
    assert.equal(withTencent[0].key, withTencentToo[1].key);
  });
});
